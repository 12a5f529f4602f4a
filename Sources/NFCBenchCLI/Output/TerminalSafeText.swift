/// Text from outside (a catalog's `displayName`, a model typed on the command line, a
/// unit label, a reader's name) may carry terminal control sequences that clear the
/// screen, set the window title or hide text. Everything the CLI prints passes through
/// here: the CLI's own colour and line-erase sequences (CSI parameters ending in `m` or
/// `K`), line feeds, carriage returns and tabs pass; every other control character is
/// shown in caret notation (`ESC` as `^[`, BEL as `^G`, C1 codes as `^[` plus a letter),
/// so it can be seen and never acted on.
enum TerminalSafeText {
    static func neutralise(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            if c == "\u{1B}", let end = ownSequenceEnd(scalars, from: i) {
                out.append(contentsOf: scalars[i...end])
                i = end + 1
                continue
            }
            if isControl(c) { out.append(contentsOf: caret(c).unicodeScalars) } else { out.append(c) }
            i += 1
        }
        return String(out)
    }

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
