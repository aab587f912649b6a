// Picking a unit of any book of the game system: a book <select> and a unit <select> that
// fills when a book is chosen (the book is fetched once, through the builder's cache). The
// combat preview's defender and the points-efficiency target both choose their unit here.
import { errorBox, h } from "./util.js";

/** The book select's choice that offers the units of the player's own list, as they stand. */
export const OWN_LIST = "@list";

/** @typedef {import("./api_shapes.js").Book} Book */
/** @typedef {import("./api_shapes.js").Unit} Unit */

export class UnitPicker {
  /**
   * bookSelect, unitSelect: the two <select> elements.
   * bookCache(id): a promise of the book (shared, so a book is fetched once per page).
   * keep(unit, book): whether a unit is offered (default: all).
   * onError(box): shows why a book could not be loaded.
   * onChange({book, unit}): called when the user picks, and when a book's units arrive.
   * ownList(): when given, the book select offers "Your list" first: its units as they stand on
   * the table ({value: an entry's key, label}), chosen as {book: OWN_LIST, unit: key}.
   * @param {object} options
   * @param {HTMLSelectElement} options.bookSelect
   * @param {HTMLSelectElement} options.unitSelect
   * @param {(id: string) => Promise<Book>} options.bookCache
   * @param {(unit: Unit, book: Book) => boolean} [options.keep]
   * @param {(box: HTMLElement) => void} [options.onError]
   * @param {(value: {book: string, unit: string}) => void} [options.onChange]
   * @param {(() => {value: string, label: string}[]) | null} [options.ownList]
   */
  constructor({ bookSelect, unitSelect, bookCache, keep = () => true, onError = () => {}, onChange = () => {}, ownList = null }) {
    this.ownList = ownList;
    this.bookSelect = bookSelect;
    this.unitSelect = unitSelect;
    this.bookCache = bookCache;
    this.keep = keep;
    this.onError = onError;
    this.onChange = onChange;
    bookSelect.addEventListener("change", () => this.loadUnits());
    unitSelect.addEventListener("change", () => this.onChange(this.value));
  }

  /** @returns {{book: string, unit: string}} the chosen book's id and unit's id ("" for none) */
  get value() {
    return { book: this.bookSelect.value, unit: this.unitSelect.value };
  }

  /** Offer these books (the system's listed books) with `current` chosen, and its `unit` if it
   * has it; `own` (the list's book) is offered too when it is not listed (an imported book).
   * Resolves when the chosen book's units are in.
   * @param {{id: string, name: string}[]} books
   * @param {{current?: string | null, own?: Book | null, unit?: string | null}} [options]
   * @returns {Promise<void>}
   */
  setBooks(books, { current = null, own = null, unit = null } = {}) {
    const all = own && !books.some((b) => b.id === own.id) ? [own, ...books] : books;
    const chosen = all.some((b) => b.id === current) ? current : (own || all[0] || {}).id;
    this.bookSelect.replaceChildren(...(this.ownList ? [h("option", { value: OWN_LIST }, "Your list (units as they stand)")] : []),
      ...all.map((b) => h("option", { value: b.id, selected: b.id === chosen }, b.name)));
    return this.loadUnits(unit);
  }

  /**
   * Fill the unit select from the chosen book; `preferred` stays chosen if the book has it.
   * @param {string | null} [preferred]
   * @returns {Promise<void>}
   */
  async loadUnits(preferred = null) {
    const id = this.bookSelect.value;
    if (id === OWN_LIST && this.ownList) { this.showOwn(preferred); return; }
    // Disabled while the book loads, so nobody (and no test) can pick the placeholder.
    this.unitSelect.disabled = true;
    this.unitSelect.replaceChildren(h("option", { value: "" }, "Loading…"));
    try {
      const book = await this.bookCache(id);
      if (id !== this.bookSelect.value) return; // another book was picked meanwhile
      const units = book.units.filter((u) => this.keep(u, book));
      this.unitSelect.replaceChildren(...units.map((u) => h("option", { value: u.id, selected: u.id === preferred }, u.name)));
      this.unitSelect.disabled = units.length === 0;
      this.onChange(this.value);
    } catch (err) {
      this.unitSelect.replaceChildren();
      this.onError(errorBox(err, "Could not load that army book"));
    }
  }

  /**
   * The player's own list as the choices (kept in step with the list: the builder calls this
   * after every change while "Your list" is chosen).
   * @param {string | null} [preferred]
   */
  showOwn(preferred = null) {
    const keep = preferred || this.unitSelect.value;
    const units = this.ownList ? this.ownList() : [];
    this.unitSelect.replaceChildren(...(units.length ? units.map((u) => h("option", { value: u.value, selected: u.value === keep }, u.label))
      : [h("option", { value: "" }, "— your list has no units yet —")]));
    this.unitSelect.disabled = units.length === 0;
    this.onChange(this.value);
  }
}
