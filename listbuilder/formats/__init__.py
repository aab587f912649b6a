"""File formats: the marshmallow schemas that read army books, system files and army lists into
model objects. Below the loader (``listbuilder.books``) and the list code (``listbuilder.lists``);
they know the model and the family records, nothing above."""
