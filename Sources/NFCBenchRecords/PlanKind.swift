/// Which probe plan a session follows (`ProbePlans` builds it).
public enum PlanKind: String, Sendable, CaseIterable { case grid, adaptive, raster, coil }
