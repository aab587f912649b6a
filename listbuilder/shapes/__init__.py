"""API shapes: the marshmallow schemas of what the HTTP API reads and answers (and the OpenAPI
document describes). Beside the web layer, which alone uses them (with the CLI for preview
requests); file formats they reuse come from ``listbuilder.formats``.

Modules:

- ``api``: books, systems, validation answers and the issue-data union
- ``previews``: a combat preview's request envelope and the OPR family's situations
- ``preview_answers``: what every family's preview answers share, and ``FamilyAnswers``
- ``opr_answers``, ``ancients_hex_answers``, ``armour_hex_answers``: what each family's
  answers hold (previews, a system's composition and limits), its record's ``answers``
- ``preview_requests``: a preview request read: JSON -> the combat service's parsed request
- ``hex_situations``: the hex families' situation schemas
- ``situation_forms``: the builder's preview form, read from a family's situation schema
- ``saved``: saved lists, versions and their diffs
- ``events``: events and submissions
- ``rounds``: rounds, results and standings
- ``log_entries``: the event log's entries, one shape per kind
- ``day``: the room on the event day: check-ins, adjustments, refused submissions, statistics
"""
