import Testing

@testable import NFCLocatorCore

@Suite("Key normalization and lookup keys")
struct NormalizationTests {
    @Test(arguments: [
        ("iPhone15,2", "iphone15_2"),
        ("iphone15,2", "iphone15_2"),
        ("SM-S921B", "sm_s921b"),
        ("Pixel 8", "pixel_8"),
        ("Pixel  8   Pro", "pixel_8_pro"),
        ("Pixel-8 / Pro", "pixel_8_pro"),
        ("SM_S921B", "sm_s921b"),
        ("Galaxy Z Fold5 (unfolded)", "galaxy_z_fold5_unfolded_"),
        ("Moto g⁵ plus", "moto_g_plus"),
        ("", ""),
    ])
    func normalizes(raw: String, expected: String) {
        #expect(CatalogKey.normalize(raw) == expected)
    }

    @Test func dtoLookupKeyUsesTheSameNormalization() {
        #expect(sampleEntry("iPhone15,2").lookupKey() == "iphone15_2")
        #expect(sampleEntry("Pixel 8").lookupKey() == "pixel_8")
    }

    @Test func lookupKeysDoNotNormalize() {
        // The provider is trusted; an un-normalized fingerprint is used as given.
        let raw = DeviceFingerprint(manufacturer: "samsung", model: "SM-S921B")
        #expect(raw.lookupKeys().map(\.key) == ["SM-S921B"])
    }

    @Test(arguments: ["SM-S921U1", "SM-S9210", "SM-S921N", "SM-S921W", "sm-s921q"])
    func samsungRegionsFoldToTheFamily(model: String) {
        let fp = ModelIdentifierFingerprintProvider(modelIdentifier: model).fingerprint()
        let keys = fp.lookupKeys()
        #expect(keys.first == LookupKey(key: CatalogKey.normalize(model), matchedBy: .exact))
        #expect(keys.last == LookupKey(key: "sm_s921", matchedBy: .family))
        #expect(keys.count == 2)
    }

    @Test(arguments: ["iphone15_2", "pixel_8", "sm_", "sm_s92", "sm_9921b", "xsm_s921b"])
    func nonSamsungKeysHaveNoFamily(key: String) {
        #expect(DeviceFingerprint.samsungFamily(of: key) == nil)
        #expect(DeviceFingerprint(manufacturer: "", model: key).lookupKeys().count == 1)
    }

    @Test func exactFamilyKeyIsNotRepeated() {
        #expect(DeviceFingerprint(manufacturer: "samsung", model: "sm_s921").lookupKeys().count == 1)
    }

    @Test(arguments: [("iPhone15,2", "apple"), ("SM-S921B", "samsung"), ("Pixel 8", "google"), ("Nokia 3310", "")])
    func providerInfersManufacturer(model: String, maker: String) {
        #expect(ModelIdentifierFingerprintProvider(modelIdentifier: model).fingerprint().manufacturer == maker)
    }
}
