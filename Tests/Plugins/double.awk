# A test plugin (docs/extending.md, "Plugins"): every column but t doubled, t passed through.
# Run as exec:awk -f Tests/Plugins/double.awk (no Python needed by swift test).
BEGIN { FS = ","; OFS = "," }
NR == 1 { print; next }
{ for (i = 2; i <= NF; i++) $i = sprintf("%.17g", 2 * $i); print }
