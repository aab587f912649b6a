"""Everything that becomes paper: roster sheets and cards, PDFs, event packs, round sheets.

A roster goes ``rosters`` (the view model) -> ``html`` (the document, templates/) -> ``pdf``
(WeasyPrint, cached by ``pdf_cache``); ``budget`` refuses a list too big to print before any of it.

Modules:

- ``rosters``: the roster view model of a list (``build_roster``) and its forum text
- ``sheets``: what each rules family prints on a unit's sheet (pure, named by the family record)
- ``quick_reference``: the special rules a roster uses, and the rules those rules mention
- ``book_profiles``: every unit of a book as the roster prints it with no upgrades (the book page)
- ``html``: the roster as an HTML document (paper sizes, layouts, local asset URLs)
- ``budget``: the work bounds a list must keep to before it is printed
- ``pdf``: the PDF of a roster, rendered by WeasyPrint with a fetcher that reads only our files
- ``pdf_cache``: rendered PDFs kept by content hash, in memory or in Redis
- ``assets``: the templates, stylesheets and fonts a roster is made from, and their digest
- ``packs``: an event's roster pack (every player's roster in one PDF), kept until the next submission
- ``pack_join``: the pack's PDFs joined in a child process
- ``round_sheets``: printed pairings and standings for a round

May import: the core, ``books``, ``lists``, ``events``, ``store``, ``formats``, ``util``. Only
``sheets`` is part of the pure core.
"""
