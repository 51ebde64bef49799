-- No helpers needed; the file shows the `scripts:` key at work.
function nothing() end
