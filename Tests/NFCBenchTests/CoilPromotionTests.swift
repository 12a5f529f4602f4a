import Foundation
import Testing

@testable import NFCBench

/// The numbers behind `catalog publish`'s stability check: the normal quantile against
/// published values (Abramowitz and Stegun, table 26.5), and the Bonferroni widening.
@Suite("The coil promotion's statistics")
struct CoilPromotionTests {
    @Test(arguments: [
        (0.5, 0.0), (0.975, 1.959964), (0.995, 2.575829), (0.999, 3.090232), (0.025, -1.959964), (1e-6, -4.753424),
    ])
    func theNormalQuantileIsThePublishedOne(_ p: Double, _ z: Double) {
        #expect(abs(CoilPromotion.normalQuantile(p) - z) < 1e-6, "\(p)")
    }

    @Test func oneCheckIsNotWidenedAndMoreAreWidenedAsBonferroniSays() {
        #expect(abs(CoilPromotion.bonferroniWidening(checks: 1) - 1) < 1e-6)
        // 8 checks: each at 0.05 / 8 two-sided, z(1 - 0.003125) = 2.734, / 1.96.
        #expect(abs(CoilPromotion.bonferroniWidening(checks: 8) - 2.734369 / 1.959964) < 1e-5)
        #expect(CoilPromotion.bonferroniWidening(checks: 16) > CoilPromotion.bonferroniWidening(checks: 8))
    }
}
