# A test plugin that never answers (killed by the per-call timeout).
echo "hang.sh: thinking" >&2
sleep 60
