import NFCLocatorCore
import Testing

@Suite("Phone platform")
struct PhonePlatformTests {
    @Test(arguments: [
        ("iPhone15,2", PhonePlatform.iOS), ("SM-S921B", .android), ("Pixel 8", .android), ("XT2303-2", .unknown),
    ])
    func theMakerInferredFromTheModelGivesThePlatform(model: String, platform: PhonePlatform) {
        #expect(ModelIdentifierFingerprintProvider(modelIdentifier: model).fingerprint().platform == platform)
    }

    @Test func aGivenMakerWinsOverTheIdentifiersShape() {
        #expect(
            ModelIdentifierFingerprintProvider(modelIdentifier: "XT2303-2", manufacturer: "Motorola").fingerprint().platform
                == .android)
        #expect(PhonePlatform(manufacturer: "Apple") == .iOS && PhonePlatform(manufacturer: "") == .unknown)
    }
}
