# foh_strip_provenance(VAR): VAR without what the reports record of how
# they were made (issue 31: the "provenance: ..." line of a text report,
# the "provenance" object of a JSON report, a shard or an HTML page's data,
# the content_hash column of --games-csv). Two runs of the same games by
# different commands (--threads 1 and 2, a run and the merge of its
# shards, the C fast paths and --lua-only) make the same report but for it.
function(foh_strip_provenance var)
  set(text "${${var}}")
  string(REGEX REPLACE "provenance: [^\n]*\n" "" text "${text}")
  string(REGEX REPLACE "\"(shards_)?provenance\": ?{[^}]*},?[ \n]*" "" text "${text}")
  string(REGEX REPLACE ",content_hash(\n|$)" "\\1" text "${text}")
  string(REGEX REPLACE ",[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f](\n|$)" "\\1" text "${text}")
  set(${var} "${text}" PARENT_SCOPE)
endfunction()
