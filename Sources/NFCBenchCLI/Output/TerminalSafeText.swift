/// Text from outside (a catalog's `displayName`, a model typed on the command line, a
/// unit label, a reader's name) may carry terminal control sequences that clear the
/// screen, set the window title, write the clipboard (OSC 52) or hide text, and
/// bidirectional controls that show text reversed. Nothing of that reaches a terminal
/// as it is: control characters are shown in caret notation (`ESC` as `^[`, BEL as `^G`,
/// C1 codes as `^[` plus a letter) and bidirectional controls (U+202A-U+202E,
/// U+2066-U+2069) as `<U+202E>`, so they can be seen and are never acted on.
///
/// Two strengths: `neutralise` for every field from outside, which passes no escape at
/// all; and `output`, which every process write passes as a backstop, and which lets the
/// CLI's own colour and line-erase sequences (CSI parameters ending in `m` or `K`) through.
enum TerminalSafeText {
    /// A field from outside: every control shown, none acted on.
    static func neutralise(_ text: String) -> String { shown(text, keepingOwnSequences: false, keepingLayout: true) }

    /// A one-line field from outside (a catalog's display name, a stored unit or operator):
    /// as `neutralise`, and a line break or tab in it shown too (`^J`, `^M`, `^I`), so a name
    /// cannot start a line of output that looks like nfcbench's own (issue 49).
    static func field(_ text: String) -> String { shown(text, keepingOwnSequences: false, keepingLayout: false) }

    /// A whole line as the CLI writes it: its own colour and erase sequences kept.
    static func output(_ text: String) -> String { shown(text, keepingOwnSequences: true, keepingLayout: true) }

    /// `keepingLayout`: line feeds, carriage returns and tabs pass as they are.
    private static func shown(_ text: String, keepingOwnSequences: Bool, keepingLayout: Bool) -> String {
        func isControl(_ c: Unicode.Scalar) -> Bool { Self.isControl(c) || (!keepingLayout && isLayout(c)) }
        guard text.unicodeScalars.contains(where: { isControl($0) || isBidirectional($0) }) else { return text }
        var out = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            if keepingOwnSequences, c == "\u{1B}", let end = ownSequenceEnd(scalars, from: i) {
                out.append(contentsOf: scalars[i...end])
                i = end + 1
                continue
            }
            if isControl(c) {
                out.append(contentsOf: caret(c).unicodeScalars)
            } else if isBidirectional(c) {
                out.append(contentsOf: "<U+\(String(c.value, radix: 16, uppercase: true))>".unicodeScalars)
            } else {
                out.append(c)
            }
            i += 1
        }
        return String(out)
    }

    /// Embeddings, overrides and isolates: what turns `txt.exe` into `exe.txt` on screen.
    static func isBidirectional(_ c: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(c.value) || (0x2066...0x2069).contains(c.value)
    }

    private static func isLayout(_ c: Unicode.Scalar) -> Bool { c == "\n" || c == "\r" || c == "\t" }

    private static func isControl(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x0A, 0x0D, 0x09: false
        case 0x00..<0x20, 0x7F, 0x80..<0xA0: true
        default: false
        }
    }

    /// The index of the final byte of `ESC [ digits/semicolons m|K`, the only sequences
    /// the CLI writes itself.
    private static func ownSequenceEnd(_ s: [Unicode.Scalar], from start: Int) -> Int? {
        guard start + 2 < s.count, s[start + 1] == "[" else { return nil }
        var j = start + 2
        while j < s.count, s[j] == ";" || ("0"..."9").contains(s[j]) { j += 1 }
        guard j < s.count, s[j] == "m" || s[j] == "K" else { return nil }
        return j
    }

    private static func caret(_ c: Unicode.Scalar) -> String {
        switch c.value {
        case 0x7F: "^?"
        case 0x80..<0xA0: "^[" + String(Unicode.Scalar(UInt8(c.value - 0x40)))
        default: "^" + String(Unicode.Scalar(UInt8(c.value + 0x40)))
        }
    }
}
