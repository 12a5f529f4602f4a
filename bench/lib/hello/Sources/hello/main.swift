import Foundation

let object: [String: String] = ["model": "SM-S921B", "confidence": "approximate"]
let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
FileHandle.standardOutput.write(data + Data("\n".utf8))
