"""Importers: other tools' files -> our army books and lists (leaves, like the YAML loader).

The core never imports this package; the CLI and the web layer call it. Above ``books`` and
``store``: an imported book is read back through the loader and kept in the database.

    army_forge_book.convert_book(data, systems)   Army Forge book JSON -> our book document + model
    army_forge_list.convert_list(data, book)      Army Forge list JSON -> our list document

Modules entered from outside:

- ``army_forge``: the two conversions above, by file kind
- ``army_forge_book``: one Army Forge book export -> our book
- ``army_forge_list``: one Army Forge list export -> our list
- ``stored``: a book imported through the API, converted whole and then stored under a new id
- ``book_files``: the CLI's plan of which book files an import writes, and writing them
- ``errors``: ``ImportFailed``

Errors::

    ImportFailed                 the file cannot be imported; nothing of it is kept
      path                       where in the source JSON ("upgradePackages[2].sections[0].variant")
      code                       "not_json", "not_army_forge", "unsupported_system", "malformed",
                                 "unknown_reference", "book_mismatch", "invalid_result"
"""

from __future__ import annotations

from listbuilder.importers.errors import ImportFailed

__all__ = ["ImportFailed"]
