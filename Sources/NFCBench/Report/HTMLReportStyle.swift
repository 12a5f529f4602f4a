/// The report's only stylesheet, inline: screen and print (A4 and Letter alike, since the
/// page size is left to the printer), each session or model on its own printed page.
enum HTMLReportStyle {
    static let css = """
        :root { color-scheme: light; }
        body { font-family: "DejaVu Sans", Arial, Helvetica, sans-serif; color: #222; background: #fff;
          margin: 2em auto; max-width: 60em; padding: 0 1em; line-height: 1.4; }
        h1 { font-size: 1.6em; margin-bottom: 0.2em; } h2 { font-size: 1.3em; border-bottom: 2px solid #333; }
        h3 { font-size: 1.05em; margin-top: 1.2em; }
        dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.15em 1em; margin: 0.5em 0; }
        dl.facts dt { font-weight: bold; } dl.facts dd { margin: 0; }
        .figure-row, .figure-grid { display: flex; gap: 1.5em; align-items: flex-start; flex-wrap: wrap; }
        figure { margin: 0.5em 0; } figure svg { display: block; max-height: 130mm; width: auto; height: auto; }
        figcaption { font-size: 0.85em; color: #444; max-width: 22em; }
        table { border-collapse: collapse; margin: 0.5em 0; font-size: 0.9em; }
        th, td { border: 1px solid #999; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
        td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
        table.positions td:nth-child(-n+3), table.positions td:nth-child(n+6),
        table.positions th:nth-child(-n+3), table.positions th:nth-child(n+6) { text-align: right; font-variant-numeric: tabular-nums; }
        thead { display: table-header-group; } tr { break-inside: avoid; }
        .verdict { font-size: 1.1em; padding: 0.5em 0.8em; border-left: 6px solid #333; background: #f3f3f3; }
        .verdict-CONFIRMED { border-color: #009E73; } .verdict-SHIFTED { border-color: #D55E00; }
        .verdict-NO_FIELD { border-color: #CC79A7; } .verdict-INCONCLUSIVE { border-color: #E69F00; }
        .simulated { font-weight: bold; color: #8a4b00; } .void { font-weight: bold; color: #a00; }
        .contradicts { font-weight: bold; }
        .mark-hit::before { content: "\\25CF\\00A0"; color: #0072B2; }
        .mark-miss::before { content: "\\2715\\00A0"; color: #D55E00; }
        .mark-skipped::before { content: "\\25A1\\00A0"; color: #777; }
        .mark-partial::before { content: "\\25D0\\00A0"; color: #0072B2; }
        .note { color: #555; font-size: 0.9em; }
        ol.timeline { font-size: 0.85em; }
        table.criteria { font-size: 0.85em; } ul.criteria { font-size: 0.85em; margin: 0.3em 0; }
        td.met { color: #006b4f; font-weight: bold; } td.unmet { color: #a03c00; font-weight: bold; }
        table.sign-off { width: 100%; } table.sign-off td { height: 2.4em; }
        table.sign-off td:nth-child(2) { width: 35%; } table.sign-off td:nth-child(n+3) { width: 25%; }
        footer { margin-top: 2em; font-size: 0.8em; color: #555; }
        @page { margin: 14mm 12mm; }
        @media print {
          body { margin: 0; max-width: none; font-size: 9.5pt; line-height: 1.3; }
          section.model, section.session { break-before: page; }
          header + section.model, header + section.session { break-before: auto; }
          header h1 { font-size: 1.3em; margin: 0; } header p { margin: 0.2em 0 0.5em; }
          dl.facts { grid-template-columns: max-content 1fr max-content 1fr; gap: 0.05em 0.8em; }
          .figure-row { flex-wrap: nowrap; gap: 1em; }
          .figure-row > figure { flex: 0 0 56%; } .figure-row > div { flex: 1 1 0; }
          .figure-grid { gap: 0.6em 1em; } .figure-grid > figure { flex: 0 0 30%; }
          figure svg { width: 100%; max-height: 150mm; }
          figure, .verdict, h2, h3, section.sign-off, table.criteria { break-inside: avoid; }
          h2, h3 { break-after: avoid; }
          a { color: inherit; text-decoration: none; }
        }
        """
}
