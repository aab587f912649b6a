"""Army lists: reading and validating submitted documents, saved lists, diffs, canonical forms.

How a list deploys on the table (totals, joined heroes, combined units) is pure and shared by
the rules and the roster: ``resolve.deployment``.

Modules:

- ``documents``: a submitted list read (``parse_list``) and validated against its book (``validate_list``)
- ``canonical``: a list's canonical JSON, its verification code and the rules version behind it
- ``diff``: what changed between two versions of a list, unit by unit
- ``saved``: saved lists: each save a new version, re-validated against the rules it was saved under

May import: the core, ``formats``, ``books``, ``util``; ``saved`` also the store. The core
never imports it.
"""
