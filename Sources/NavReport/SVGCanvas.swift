import Foundation

// The pieces every navbench SVG shares, so the line plot, the box plots and the error plot draw
// their canvas, frame, left-axis ticks and axis titles the same way. Text goes through
// `xmlEscaped` (names from data may hold any character).

/// The opening of an SVG: a `width`×`height` px canvas (sans-serif, 12 px) on white; with a
/// `description` (a figure's text alternative, Markdown), its plain words as the first child
/// `<title>` (the accessible name of the file read alone; a `<desc>` with the same words would be read twice).
func svgCanvasOpening(width: Double, height: Double, description: String? = nil) -> String {
    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"sans-serif\" font-size=\"12\">\n"
        + (description.map { d in
            let text = xmlEscaped(markdownPlainText(d))
            return "<title>\(text)</title>\n"
        } ?? "")
        + "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
}

/// A title centred at (`x`, `y`).
func svgTitle(_ title: String, x: Double, y: Double, fontSize: Int) -> String {
    "<text x=\"\(fixed2(x))\" y=\"\(Int(y))\" text-anchor=\"middle\" font-size=\"\(fontSize)\">\(xmlEscaped(title))</text>\n"
}

/// The grey frame of a plot area.
func svgFrame(left: Double, top: Double, width: Double, height: Double) -> String {
    "<rect x=\"\(fixed2(left))\" y=\"\(fixed2(top))\" width=\"\(fixed2(width))\" height=\"\(fixed2(height))\" fill=\"none\" stroke=\"#888\"/>\n"
}

/// Tick marks (4 px, outside the frame) and labels on the left axis at `ticks` (`niceTicks`).
func svgLeftTicks(_ ticks: [Double], step: Double, left: Double, y: (Double) -> Double) -> String {
    var s = ""
    for v in ticks {
        s += "<line x1=\"\(fixed2(left - 4))\" y1=\"\(fixed2(y(v)))\" x2=\"\(fixed2(left))\" y2=\"\(fixed2(y(v)))\" stroke=\"#888\"/>\n"
        s += "<text x=\"\(fixed2(left - 6))\" y=\"\(fixed2(y(v) + 4))\" text-anchor=\"end\">\(tickLabel(v, step: step))</text>\n"
    }
    return s
}

/// The x title centred under the plot area (8 px above the canvas bottom) and the y title
/// rotated at x = 14.
func svgAxisTitles(
    x xLabel: String, y yLabel: String, left: Double, top: Double, width: Double, height: Double,
    canvasHeight: Double
) -> String {
    let cy = fixed2(top + height / 2)
    return "<text x=\"\(fixed2(left + width / 2))\" y=\"\(fixed2(canvasHeight - 8))\" text-anchor=\"middle\">\(xmlEscaped(xLabel))</text>\n"
        + "<text x=\"14\" y=\"\(cy)\" text-anchor=\"middle\" transform=\"rotate(-90 14 \(cy))\">\(xmlEscaped(yLabel))</text>\n"
}
