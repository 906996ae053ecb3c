"""Game data and rosters (issue 4 fills this in)."""
