/// A figure to a tenth, without a trailing ".0" ("22.5", "46", "10"), as the record's
/// words give millimetres, degrees and percentages. For finite figures within the ranges
/// a record allows.
public enum Tenths {
    public static func words(_ v: Double) -> String {
        let tenths = (v * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int(tenths / 10)) : String(tenths / 10)
    }
}
