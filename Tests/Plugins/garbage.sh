# A test plugin that answers garbage (exit status 0).
cat > /dev/null
echo "hello, world"
