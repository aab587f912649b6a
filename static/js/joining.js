// Heroes that join a unit and attachments (ancients-hex): which units of a book can take them.
import { ruleName } from "./util.js";

/** @typedef {import("./api_shapes.js").Book} Book */
/** @typedef {import("./api_shapes.js").GameSystem} GameSystem */
/** @typedef {import("./api_shapes.js").Unit} Unit */

/**
 * Can a unit of the book take a joining hero (heroes) or an attachment (ancients-hex)?
 * @param {GameSystem} system
 * @param {Unit} unit
 * @param {boolean} heroes  true: a hero; false: an attachment
 * @returns {boolean}
 */
export function canHostUnit(system, unit, heroes) {
  const comp = system.composition || {};
  if (heroes) return !unit.is_hero && !(comp.heroes_join.multi_model_only && unit.size <= 1);
  const advance = new Set(comp.advance_rules || []);
  return (unit.rules || []).some((r) => advance.has(ruleName(r))) && !(unit.rules || []).some((r) => ruleName(r) === comp.attachment_rule);
}

/**
 * The book's units that can join (heroes) or attach to this one: {what, a: "a hero", units}, or null.
 * @param {GameSystem} system
 * @param {Book} book
 * @param {Unit} unit
 * @returns {{what: string, a: string, units: Unit[]} | null}
 */
export function joinersOf(system, book, unit) {
  const comp = system.composition || {};
  const heroes = Boolean(comp.heroes_join);
  if (!(heroes || comp.attachment_rule) || !canHostUnit(system, unit, heroes)) return null;
  const units = book.units.filter((u) => heroes ? u.is_hero : (u.rules || []).some((r) => ruleName(r) === comp.attachment_rule));
  return heroes ? { what: "hero", a: "a hero", units } : { what: "attachment", a: "an attachment", units };
}
