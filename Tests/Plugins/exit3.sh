# A test plugin that fails: exits 3 without reading its input, after two lines on stderr.
echo "exit3.sh: starting" >&2
echo "exit3.sh: window must be odd" >&2
exit 3
