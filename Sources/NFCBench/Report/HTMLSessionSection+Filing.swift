import Foundation
import NFCBenchRecords
import NFCLocatorCore

/// The parts of a session's report that make it a record to file: the rules the verdict
/// applied, with this session's numbers, and the block the operator and reviewer sign.
extension HTMLSessionSection {
    func criteria(to sink: ExportSink) throws {
        let h = XMLText.escape
        let c = VerdictCriteria(score: report.score, bodyHeightMm: report.session.bodyHeightMm)
        try sink.append(
            "<section class=\"criteria\">\n<h3>How the verdict was reached</h3>\n<p>\(h(c.bands))</p>\n"
                + "<table class=\"criteria\"><thead><tr><th scope=\"col\">CONFIRMED needs all of</th>"
                + "<th scope=\"col\">this session</th><th scope=\"col\">met</th></tr></thead>\n<tbody>\n")
        for criterion in c.confirmed {
            let met =
                switch criterion.met {
                case true?: "<td class=\"met\">yes</td>"
                case false?: "<td class=\"unmet\">no</td>"
                case nil: "<td>cannot tell</td>"
                }
            try sink.append("<tr><td>\(h(criterion.rule))</td><td>\(h(criterion.observed))</td>\(met)</tr>\n")
        }
        try sink.append("</tbody></table>\n<ul class=\"criteria\">")
        for other in c.others { try sink.append("<li>\(h(other))</li>") }
        try sink.append("</ul>\n<p class=\"decision-rule\">\(h(c.decisionRule))</p>\n</section>\n")
    }

    /// Names where the record has them; blank lines to write on where it does not.
    func signOff(to sink: ExportSink) throws {
        let h = XMLText.escape
        let rows = [("Operator", report.session.operatorName), ("Reviewer", options.reviewer)]
        try sink.append(
            "<section class=\"sign-off\">\n<h3>Sign-off</h3>\n<table class=\"sign-off\"><thead><tr><th scope=\"col\">role</th>"
                + "<th scope=\"col\">name</th><th scope=\"col\">date</th><th scope=\"col\">signature</th></tr></thead>\n<tbody>\n"
        )
        for (role, name) in rows {
            try sink.append("<tr><td>\(role)</td><td>\(h(name ?? ""))</td><td></td><td></td></tr>\n")
        }
        try sink.append("</tbody></table>\n</section>\n")
    }
}
