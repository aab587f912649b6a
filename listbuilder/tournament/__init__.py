"""The tournament day's rules: pairing players round by round, scoring games, ranking players.

A pure core (the standard library and networkx's matching, nothing of Flask, SQL or the army
books): ``pairing`` makes a round's tables, ``scoring`` turns what happened at a table into
points, ``standings`` ranks players from every game played. The store keeps the rounds and
results; the web layer hands them here and answers with what comes back.

Modules:

- ``pairing``: a round's tables (Swiss, with byes and no rematches)
- ``results``: a table's result as entered, confirmed or disputed
- ``scoring``: what a table's result is worth to each player
- ``standings``: players ranked by points and tiebreakers
- ``tables``: which table each paired game is played at (players the organiser fixed to a table)
"""

# The tiebreakers ``standings`` knows, by name (what each weighs: its docstring). Here, not
# there, so the API's shapes name them without importing the tournament's engine at start-up.
TIEBREAKERS = ("buchholz", "opponents_strength", "secondary", "head_to_head", "sos", "secondary_difference")

# The order an event uses until its organiser sets one: the four tiebreakers there were before
# ``sos`` and ``secondary_difference`` came (issue 35), so that no existing event's standings move.
DEFAULT_TIEBREAKERS = ("buchholz", "opponents_strength", "secondary", "head_to_head")
