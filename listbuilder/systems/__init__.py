"""The rules classes, one module per rules family; ``listbuilder.families`` registers them."""
