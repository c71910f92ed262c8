"""Looking after a table that runs for years: its backups on a USB stick, one file of logs
for whoever helps, and the requests the page leaves for the root helper (a restore, an
update) that the companion's own sandboxed service may not do itself.
"""
