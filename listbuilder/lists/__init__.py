"""Army lists: reading and validating submitted documents, saved lists, diffs, canonical forms.

Modules:

- ``documents``: a submitted list read (``parse_list``) and validated against its book (``validate_list``)
- ``canonical``: a list's canonical JSON, its verification code and the rules version behind it
- ``diff``: what changed between two versions of a list, unit by unit
- ``deployment``: how a list reaches the table (totals, activations, deployment groups)
- ``saved``: saved lists: each save a new version, re-validated against the rules it was saved under

May import: the core, ``formats``, ``books``, ``util``; ``saved`` also the store. The core
imports only ``deployment`` from here (pure).
"""
