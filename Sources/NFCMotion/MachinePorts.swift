import Foundation

/// The serial ports a machine may be on, for `rig init` to ask in turn.
///
/// `/dev/serial/by-id/...` names come first and are the names written to the rig file:
/// they follow the board, where `/dev/ttyUSB0` follows the order things were plugged in.
/// Each device is listed once, under its stable name when it has one.
public enum MachinePorts {
    public struct Port: Sendable, Equatable {
        /// The name to open and to write in the rig file.
        public let path: String
        /// The device node it resolves to (`/dev/ttyUSB0`).
        public let node: String

        /// Opened, and written in the rig file, under this name, whatever it resolves to.
        public init(named path: String) {
            self.path = path
            node = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        }
    }

    public static func candidates(devRoot: String) -> [Port] {
        let files = FileManager.default
        var ports: [Port] = []
        var seen: Set<String> = []
        func add(_ path: String) {
            let port = Port(named: path)
            guard files.fileExists(atPath: port.node), seen.insert(port.node).inserted else { return }
            ports.append(port)
        }
        let byID = devRoot + "/serial/by-id"
        for name in ((try? files.contentsOfDirectory(atPath: byID)) ?? []).sorted() { add(byID + "/" + name) }
        let nodes = ((try? files.contentsOfDirectory(atPath: devRoot)) ?? []).filter {
            $0.hasPrefix("ttyUSB") || $0.hasPrefix("ttyACM")
        }
        for name in nodes.sorted(by: { $0.localizedStandardCompare($1) == .orderedAscending }) { add(devRoot + "/" + name) }
        return ports
    }
}
