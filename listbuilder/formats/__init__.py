"""File formats: the marshmallow schemas that read army books, system files and army lists into
model objects. Below the loader (``listbuilder.books.loader``) and the list code
(``listbuilder.lists.documents``); they know the model and the family records, nothing above.

Modules:

- ``books``: the army-book and system-file schemas every family shares
- ``opr``, ``ancients_hex``, ``armour_hex``: each family's unit, composition and situation schemas
- ``lists``: the army-list document, with its fast reader for well-formed lists
- ``fields``: the fields every schema uses (identifiers, costs, whole numbers)
- ``fast_reader``: the fast path that reads a well-formed document without marshmallow's walk
"""
