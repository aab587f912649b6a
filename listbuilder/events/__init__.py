"""The event day's edge: list submissions, rounds and results, between the store and ``tournament/``.

The pairing, scoring and standings themselves are the pure ``tournament`` package; this one
reads and writes the event through ``store`` and checks each request against the day's state.

Modules:

- ``submissions``: an event's settings and the lists players submit to it, validated at the pinned rules
- ``rounds``: the day: starting rounds, entering and confirming results, standings
- ``admin``: the organiser's changes to a running day (settings, withdrawals, reopening)
- ``round_undo``: the organiser's undo of the last round while it has no result
- ``checkins``: check-in, the no-shows withdrawn at once, late arrivals back
- ``adjustments``: the organiser's penalties and bonuses, with a reason
- ``refusals``: submissions refused as illegal lists, kept for the organiser
- ``statistics``: the results joined to the lists, per army book and per unit
- ``organiser``: the check an organiser-only plan makes first
- ``player_view``: one player's view of the day, for their own page
- ``stored_reports``: a submission's stored report read in the shape answers have now
- ``charts``: the statistics page's charts, drawn as SVG by pygal
- ``timer``: the round timer every page of the event shows
- ``handover``: the organiser's hand-over code for a second device

May import: the core, ``tournament``, ``lists``, ``books``, ``store``, ``util``.
"""
