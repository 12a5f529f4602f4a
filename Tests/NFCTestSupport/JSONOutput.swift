import Foundation

/// A command's `--json` output as the object it prints (a test fails loudly on anything else).
public func jsonObject(_ text: String) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
}

/// A command's `--json` output as the array of objects it prints.
public func jsonArray(_ text: String) throws -> [[String: Any]] {
    try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [[String: Any]]
}
