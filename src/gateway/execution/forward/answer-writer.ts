import type { FieldPlan, ValuePlan } from './answer-plan.ts';
import type { Path, Walk } from './answer-completion.ts';

/** A link whose value is still on its way: where its text goes, and where the completion writes its value. */
interface Hole {
  at: number;
  slot: Record<string, unknown>;
  key: string;
}

/**
 * Writes the JSON text of `{"data":…}` straight from the source's data, fields in selection order,
 * each link filled by the completion (`walk`: its resolver called, its result completed against the
 * schema) in place: no answer object is built for the source's part, and the text is made once.
 * Only for data that completesCleanly (answer-checks.ts): the source's values go out as they came. A link answered at
 * once (its value in memory) is written in line; one still on its way leaves a hole, filled when the
 * walk has settled (fill).
 */
export class AnswerWriter {
  private out = '';
  private readonly parts: string[] = [];
  private readonly holes: Hole[] = [];

  private readonly walk: Walk;

  constructor(walk: Walk) {
    this.walk = walk;
  }

  /** The root object's fields. */
  root(fields: FieldPlan[], data: Record<string, unknown>): void {
    this.out = '{"data":';
    this.object(fields, data, undefined);
    this.out += '}';
  }

  /**
   * The text, every link in its place: call once the walk has settled. Concatenated, not joined:
   * V8 links the parts (a rope), and the one flat copy is made where the door writes the answer,
   * which a join would have made here too.
   */
  text(): string {
    if (this.holes.length === 0) return this.out;
    this.parts.push(this.out);
    for (const { at, slot, key } of this.holes) this.parts[at] = JSON.stringify(slot[key]) ?? 'null';
    let text = '';
    for (const part of this.parts) text += part;
    return text;
  }

  private object(fields: FieldPlan[], from: Record<string, unknown>, path: Path | undefined): void {
    if (fields.length === 0) {
      this.out += '{}';
      return;
    }
    for (let index = 0; index < fields.length; index += 1) {
      const field = fields[index];
      this.out += index === 0 ? field.openingJson : field.nextJson;
      switch (field.read) {
        case 'typename':
          this.out += field.parentTypeJson;
          continue;
        case 'link':
          this.link(field, from, { prev: path, key: field.key });
          continue;
        default:
          this.value(field.value, from[field.key], path, field.key);
      }
    }
    this.out += '}';
  }

  /** A value of the source's data that completesCleanly: as it came, objects in selection order. */
  private value(plan: ValuePlan, value: unknown, parent: Path | undefined, key: string | number): void {
    if (value == null) {
      this.out += 'null';
      return;
    }
    switch (plan.kind) {
      case 'leaf':
        this.out += JSON.stringify(value);
        return;
      case 'list': {
        const items = value as unknown[];
        const path: Path = { prev: parent, key };
        this.out += '[';
        for (let index = 0; index < items.length; index += 1) {
          if (index > 0) this.out += ',';
          this.value(plan.item, items[index], path, index);
        }
        this.out += ']';
        return;
      }
      case 'object':
        this.object(plan.fields, value as Record<string, unknown>, { prev: parent, key });
        return;
      case 'abstract': {
        const object = value as Record<string, unknown>;
        this.object(plan.byType.get(object.__typename as string)!, object, { prev: parent, key });
        return;
      }
    }
  }

  /**
   * A link: written now when the completion answers it at once, else a hole for its value to come.
   * A frozen result the plan has written before (FieldPlan.link.texts: a kept translation on a warm
   * page) is written as that text, with no completion and no JSON of it made again.
   */
  private link(field: FieldPlan, from: Record<string, unknown>, path: Path): void {
    const { walk } = this;
    const slot: Record<string, unknown> = {};
    let resolved: unknown;
    try {
      resolved = walk.callLink(field, from, path);
    } catch (error) {
      walk.linkThrew(field, slot, path, error);
      this.out += 'null';
      return;
    }
    const texts = field.link!.texts;
    const kept = texts !== undefined && typeof resolved === 'object' && resolved !== null && Object.isFrozen(resolved);
    if (kept) {
      const text = texts.get(resolved as object);
      if (text !== undefined) {
        this.out += text;
        return;
      }
    }
    const pending = walk.pending.length;
    const errors = walk.errors.length;
    walk.completeLink(field, slot, path, resolved);
    if (walk.pending.length !== pending) {
      this.hole(slot, field.key);
      return;
    }
    const text = JSON.stringify(slot[field.key]) ?? 'null';
    if (kept && walk.errors.length === errors && !walk.leftToExecution) texts.set(resolved as object, text);
    this.out += text;
  }

  /** Where a value still to come is written once the walk has settled (text). */
  private hole(slot: Record<string, unknown>, key: string): void {
    this.parts.push(this.out);
    this.holes.push({ at: this.parts.length, slot, key });
    this.parts.push('');
    this.out = '';
  }
}
