import Foundation
import NFCSystem

extension MachineSurvey {
    /// Why a port held no machine nfcbench can drive.
    public enum Miss: Error, Sendable, Equatable, CustomStringConvertible {
        /// Nothing G-code answered (a reader, a modem, a board at another baud rate).
        case silent
        /// The port could not be opened (busy, no permission, gone).
        case unavailable(String)
        /// Something answered `M115` but neither as GRBL nor as Marlin.
        case unknown(String)

        public var description: String {
            switch self {
            case .silent: "nothing G-code answered"
            case .unavailable(let why): why
            case .unknown(let reply): "something answered, but not as GRBL or Marlin ('\(reply)')"
            }
        }
    }

    /// Asks the machine on `device` who it is and how it is set up, moving nothing.
    ///
    /// `M115` (Marlin's firmware report) comes first: Marlin names itself, and GRBL refuses
    /// the unknown word with `error:20`. GRBL is then asked for its build (`$I`) and its
    /// settings (`$$`); Marlin for its soft endstops (`M211`) and its endstops (`M119`).
    /// A GRBL board that resets as the port opens says its banner first; it is asked again.
    public static func identify(_ device: String, baud: Int, timeout: Duration) async -> Result<MachineSurvey, Miss> {
        await BlockingWork.run("nfcbench.rig-init") { identifyBlocking(device, baud: baud, timeout: timeout) }
    }

    static func identifyBlocking(_ device: String, baud: Int, timeout: Duration) -> Result<MachineSurvey, Miss> {
        let stop = StopRequest()
        let firstReply: Result<[String], MachineError>
        do throws(MachineError) {
            let link = try MachineLink.open(device, baud: baud, dialect: .grbl)
            link.drain(quiet: .milliseconds(200))
            firstReply = askM115(link, timeout: timeout, stop: stop)
            if case .failure(.refused) = firstReply { return .success(try grbl(link, device, baud, timeout, stop)) }
        } catch .port(let why) {
            return .failure(.unavailable(why))
        } catch {
            return .failure(.unknown(error.description))
        }
        switch firstReply {
        case .success(let lines):
            guard let name = lines.first(where: { $0.contains("FIRMWARE_NAME:Marlin") }) else {
                return .failure(.unknown(lines.first ?? "ok"))
            }
            do throws(MachineError) {
                // The first link is closed by now; Marlin's replies are read in its own terms.
                let link = try MachineLink.open(device, baud: baud, dialect: .marlin)
                return .success(try marlin(link, device, baud, firmware: name, timeout, stop))
            } catch {
                return .failure(.unavailable(error.description))
            }
        case .failure(.noAnswer): return .failure(.silent)
        case .failure(let error): return .failure(.unknown(error.description))
        }
    }

    /// `M115`, asked twice when a reset banner comes first.
    static func askM115(_ link: MachineLink, timeout: Duration, stop: StopRequest) -> Result<[String], MachineError> {
        for _ in 0..<2 {
            do throws(MachineError) {
                return .success(try link.send("M115", timeout: timeout, stop: stop))
            } catch .reset {
                link.drain(quiet: .milliseconds(300))
                continue
            } catch {
                return .failure(error)
            }
        }
        return .failure(.noAnswer(to: "M115", seconds: timeout.seconds))
    }

    static func grbl(_ link: MachineLink, _ device: String, _ baud: Int, _ timeout: Duration, _ stop: StopRequest)
        throws(MachineError) -> MachineSurvey
    {
        let build = try link.send("$I", timeout: timeout, stop: stop)
        let settings = grblSettings(try link.send("$$", timeout: timeout, stop: stop))
        let version = build.first { $0.hasPrefix("[VER:") }.map { String($0.dropFirst(5).dropLast()) }
        let travel = settings[130].flatMap { x in settings[131].flatMap { y in settings[132].map { z in (x, y, z) } } }
        let feeds = settings[110].flatMap { x in settings[111].flatMap { y in settings[112].map { z in (min(x, y), z) } } }
        return MachineSurvey(
            device: device, dialect: .grbl, baud: baud, firmware: "GRBL " + (version ?? "(version not reported)"),
            travel: travel, maximumFeed: feeds, homing: grblHoming(settings))
    }

    static func marlin(
        _ link: MachineLink, _ device: String, _ baud: Int, firmware: String, _ timeout: Duration, _ stop: StopRequest
    ) throws(MachineError) -> MachineSurvey {
        link.drain(quiet: .milliseconds(200))
        let travel = marlinTravel(try link.send("M211", timeout: timeout, stop: stop))
        let endstops = try link.send("M119", timeout: timeout, stop: stop)
        let name = firmware.components(separatedBy: "FIRMWARE_NAME:").last.map {
            String($0.prefix { $0 != "(" }).trimmingCharacters(in: .whitespaces)
        }
        return MachineSurvey(
            device: device, dialect: .marlin, baud: baud, firmware: name ?? "Marlin", travel: travel, maximumFeed: nil,
            homing: marlinHoming(endstops))
    }
}
