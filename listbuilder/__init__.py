"""listbuilder: build and validate army lists, print rosters, preview combats with exact odds."""
