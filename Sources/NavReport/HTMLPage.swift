import Foundation

/// The opening of every page navbench writes (report.html, view.html, plot pages), up to `<body>`:
/// English, UTF-8, a viewport, the escaped title and one inline style sheet (the shared body rule,
/// then `style`). No script, font or style from elsewhere.
func htmlPageOpening(title: String, maxWidth: String, style: String) -> String {
    """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>\(xmlEscaped(title))</title>
    <style>
    body { font-family: system-ui, sans-serif; line-height: 1.5; color: #1a1a1a; background: #fff; margin: 0 auto; max-width: \(maxWidth); padding: 0 1rem 3rem; }
    \(style)
    </style>
    </head>
    <body>

    """
}
