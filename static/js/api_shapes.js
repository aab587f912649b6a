// The shapes the pages share, from the REST API (its OpenAPI document has the whole schemas), as
// JSDoc types for `tsc --checkJs` (make lint-js). No code: the browser never loads this module;
// the others name its types with import("./api_shapes.js").
//
// Only the fields the pages read are listed; the API sends more.

/**
 * A price in one or more currencies: {pts: 120}, {ip: 1, cp: 2}.
 * @typedef {Record<string, number>} Cost
 */

/**
 * One option taken in one upgrade section; count is models for per-model sections, else 1.
 * @typedef {object} UpgradeRow
 * @property {string} section
 * @property {string} option
 * @property {number} count
 */

/**
 * One unit of a list, as the builder keeps it (every field present; payloadOf leaves empty ones out).
 * @typedef {object} Entry
 * @property {string} key
 * @property {string} unit
 * @property {string} name
 * @property {string} notes
 * @property {UpgradeRow[]} upgrades
 * @property {string | null} combined_with
 * @property {string | null} joined_to
 * @property {string[]} spells
 */

/**
 * An army list in the API's list format.
 * @typedef {object} ArmyList
 * @property {string} system
 * @property {string} book
 * @property {string} name
 * @property {Entry[]} units
 * @property {number} [points_limit]
 * @property {string | null} [game_mode]
 * @property {Record<string, number> | null} [budget]
 * @property {boolean} [force_org]
 */

/**
 * An option of an upgrade section.
 * @typedef {object} Option
 * @property {string} id
 * @property {string} label
 * @property {Cost} [cost]
 * @property {Record<string, Cost>} [unit_costs]
 * @property {string[]} [requires]  "section/option" references
 * @property {Record<string, any>} [gains]
 * @property {boolean} [elite]
 * @property {boolean} [elite_only]
 * @property {string} [command]
 */

/**
 * An upgrade section of a book: what it affects and how many options may be picked.
 * @typedef {object} Section
 * @property {string} id
 * @property {string} label
 * @property {string} affects  "unit", "one", "all", "up_to" or "any"
 * @property {number} [affects_count]
 * @property {{min: number, max: number | null}} [pick]
 * @property {string} [variant]
 * @property {string[]} replaces
 * @property {Option[]} options
 */

/**
 * A unit of a book.
 * @typedef {object} Unit
 * @property {string} id
 * @property {string} name
 * @property {number} size
 * @property {Cost} cost
 * @property {boolean} [is_hero]
 * @property {string[]} upgrades  ids of its sections
 * @property {any[]} [weapons]
 * @property {any[]} [items]
 * @property {any[]} [rules]
 * @property {Record<string, any>} [stats]
 * @property {string} [description]
 */

/**
 * An army book.
 * @typedef {object} Book
 * @property {string} id
 * @property {string} name
 * @property {string} system
 * @property {Unit[]} units
 * @property {Section[]} upgrades
 * @property {any[]} [spells]
 * @property {any[]} [rules]  the book's own rules, with their texts
 * @property {Record<string, any>} [extra]
 */

/**
 * A game system: its composition and limits vary by rules family, so they stay loose here.
 * @typedef {object} GameSystem
 * @property {string} id
 * @property {string} name
 * @property {string} [family]
 * @property {Record<string, any>} composition
 * @property {Record<string, any>} limits
 * @property {any[]} [spells]
 * @property {any[]} [glossary]  the rules' texts
 * @property {PreviewForm} [preview]  the combat preview form, as the system's rules family reads a situation
 *   (none in an answer kept offline from before the server sent it)
 * @property {Record<string, string>} [stat_formats]  how a stat reads, by stat ("{value}+"); the same caveat
 */

/**
 * A system's combat previews as the builder offers them (GET /api/v1/systems/<id>'s preview).
 * @typedef {object} PreviewForm
 * @property {boolean} available  whether the system has combat previews at all
 * @property {boolean} counts_wounds  whether its previews count wounds (the loadout comparison needs it)
 * @property {string | null} attack_input  the input that picks the kind of attack, which `when` names
 * @property {FormInput[]} inputs  in the order the form shows them
 * @property {string[]} other_keys  situation keys the form leaves to the JSON box
 * @property {Comparison[]} comparisons  the attacks a loadout comparison offers
 */

/**
 * One input of the preview form: a key of the situation.
 * @typedef {object} FormInput
 * @property {string} name
 * @property {"select" | "number" | "checkbox" | "text"} kind
 * @property {string} label
 * @property {boolean | number | string | null} default  what the engine assumes when the key is left out
 * @property {boolean | number | string | null} initial  what the form starts with
 * @property {number | null} min
 * @property {number | null} max
 * @property {number | null} max_length
 * @property {string | null} when  shown (and sent) only for this attack kind
 * @property {{value: string, label: string}[]} choices  a select's, the first chosen at the start
 * @property {string | null} choices_from  the composition list they come from
 */

/**
 * An attack the loadout comparison offers: the attack kind and the flags set true for it.
 * @typedef {object} Comparison
 * @property {string} label
 * @property {string} attack
 * @property {string[]} flags
 */

/**
 * What deploys together: a unit or a combined pair, with the heroes joined to it (groups.js).
 * @typedef {object} Group
 * @property {string} key
 * @property {Entry[]} members
 * @property {Entry[]} heroes
 * @property {Entry[]} entries  members, then heroes
 */

/**
 * One finding of the validator; path points into the list ("units[2].upgrades[0]").
 * @typedef {object} Issue
 * @property {string} code
 * @property {"error" | "warning"} severity
 * @property {string} message
 * @property {string} clause
 * @property {string} [path]
 * @property {Record<string, any>} [data]
 */

/**
 * The answer of POST /api/v1/lists/validate?profiles=true.
 * @typedef {object} Report
 * @property {boolean} valid
 * @property {Issue[]} issues
 * @property {Record<string, any>} totals
 * @property {Record<string, {cost: Cost, profile?: Record<string, any>}>} [entries]
 */

export {};
