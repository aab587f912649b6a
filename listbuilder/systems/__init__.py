"""The rules of each game system's family: what a legal army is, checked and reported.

``listbuilder.families`` names each family's rules class here; nothing else picks one.

Modules:

- ``rules``: ``SystemRules``, what every family provides and the mechanics they share (``rules_for``,
  ``labelled_rules``)
- ``opr``, ``opr_table``: the OPR family (Age of Fantasy, Grimdark Future, regiments)
- ``ancients_hex``, ``ancients_hex_books``: the hex ancients game
- ``armour_hex``, ``armour_hex_books``, ``armour_hex_budget``, ``armour_hex_loadout``: the hex
  armour game (``armour_hex_loadout`` also tells the roster which crews are elite)

May import: ``model``, ``validation``, ``resolve``, ``families``, ``util``: the core only.
"""
