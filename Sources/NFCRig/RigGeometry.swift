import NFCBenchRecords

/// A probe on the phone's back, in the machine's coordinates: the phone's published body
/// size turns fractions into millimetres, the rig's origin and axes turn those into
/// machine X and Y.
public struct RigGeometry: Sendable {
    public let rig: RigConfiguration
    public let bodyWidthMm: Double
    public let bodyHeightMm: Double

    public init(rig: RigConfiguration, bodyWidthMm: Double, bodyHeightMm: Double) {
        precondition(bodyWidthMm > 0 && bodyHeightMm > 0, "a phone's body has a size")
        self.rig = rig
        self.bodyWidthMm = bodyWidthMm
        self.bodyHeightMm = bodyHeightMm
    }

    /// Machine X and Y of a point given in fractions of the back (catalog convention).
    public func machinePoint(x: Double, y: Double) -> (x: Double, y: Double) {
        var machine = (x: rig.originX, y: rig.originY)
        for (direction, millimetres) in [(rig.xAxis, x * bodyWidthMm), (rig.yAxis, y * bodyHeightMm)] {
            switch direction.axis {
            case .x: machine.x += direction.sign * millimetres
            case .y: machine.y += direction.sign * millimetres
            }
        }
        return machine
    }

    public func machinePoint(_ probe: Probe) -> (x: Double, y: Double) { machinePoint(x: probe.x, y: probe.y) }

    /// The phone's back point (fractions) under machine X and Y: `machinePoint` undone.
    public func backPoint(machineX: Double, machineY: Double) -> (x: Double, y: Double) {
        var millimetres = (x: 0.0, y: 0.0)
        let offset = (x: machineX - rig.originX, y: machineY - rig.originY)
        for (index, direction) in [rig.xAxis, rig.yAxis].enumerated() {
            let along = direction.sign * (direction.axis == .x ? offset.x : offset.y)
            if index == 0 { millimetres.x = along } else { millimetres.y = along }
        }
        return (millimetres.x / bodyWidthMm, millimetres.y / bodyHeightMm)
    }

    /// Machine Z for a height above the back.
    public func machineZ(heightMm: Double) -> Double { rig.tapZ + heightMm }

    /// Why a tap cannot be made `heightMm` above the back, or `nil`: it must stay below the
    /// safe height, where the reader travels and the field must be clear.
    public func heightRefusal(_ heightMm: Double) -> String? {
        let room = rig.safeZ - rig.tapZ
        guard heightMm < room else {
            return "a height of \(RigConfiguration.number(heightMm)) mm reaches the safe height (safe-z is "
                + "\(RigConfiguration.number(room)) mm above tap-z); raise safe-z or choose lower --heights"
        }
        return nil
    }

    /// Why a point cannot be reached, or `nil`: machine X and Y inside `0...travel`.
    public func outsideTravel(x: Double, y: Double) -> String? {
        let point = machinePoint(x: x, y: y)
        let tolerance = 1e-6
        if point.x < -tolerance || point.x > rig.travelX + tolerance {
            return
                "machine X \(RigConfiguration.number(point.x)) mm is outside travel-x 0...\(RigConfiguration.number(rig.travelX)) mm"
        }
        if point.y < -tolerance || point.y > rig.travelY + tolerance {
            return
                "machine Y \(RigConfiguration.number(point.y)) mm is outside travel-y 0...\(RigConfiguration.number(rig.travelY)) mm"
        }
        return nil
    }

    /// The first of `probes` the machine cannot reach, as a sentence naming the position
    /// (1-based, as the run counts them) and where it falls; then the corners of the back,
    /// which an adaptive plan may visit: `nil` when the whole back is inside the travel.
    public func unreachable(_ probes: [Probe]) -> String? {
        if let highest = probes.map(\.heightMm).max(), let why = heightRefusal(highest) { return why }
        for (index, probe) in probes.enumerated() {
            if let why = outsideTravel(x: probe.x, y: probe.y) {
                return "position \(index + 1) (\(millimetres(probe))) is out of reach: \(why)"
            }
        }
        let corners = [("top-left", 0.0, 0.0), ("top-right", 1, 0), ("bottom-left", 0, 1), ("bottom-right", 1, 1)]
        for (name, x, y) in corners {
            if let why = outsideTravel(x: x, y: y) {
                return "the phone's \(name) corner is out of reach (a plan may probe anywhere on the back): \(why)"
            }
        }
        return nil
    }

    /// `x 12.3 mm, y 45.6 mm from the top-left corner`.
    public func millimetres(_ probe: Probe) -> String {
        "x \(RigConfiguration.number(probe.x * bodyWidthMm)) mm, y \(RigConfiguration.number(probe.y * bodyHeightMm)) mm "
            + "from the top-left corner"
    }
}
