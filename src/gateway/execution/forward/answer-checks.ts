import type { FieldPlan, ValuePlan } from './answer-plan.ts';

/**
 * Whether an object is exactly what completion gives back: its keys in order and nothing else,
 * every value unchanged. Such an answer goes out as the source's own bytes.
 */
export function fieldsUnchanged(object: unknown, fields: FieldPlan[]): boolean {
  if (!isRecord(object)) return false;
  let index = 0;
  for (const key in object) {
    const field = fields[index];
    if (field === undefined || field.key !== key || (field.read !== 'data' && field.read !== 'typename') || !valueChecked(object[key], field.value, fieldsUnchanged)) return false;
    index += 1;
  }
  return index === fields.length;
}

/**
 * Whether the source's data completes without a change of value and without an error: every value
 * one its type gives back as it came, every non-null field set, every list an array, every object an
 * object (of a type the plan knows, for an interface or a union). Keys may come in another order,
 * and keys the operation did not select may be there: the answer is written in selection order
 * anyway (answer-writer.ts). What it finds wrong is left to the completion that words the errors
 * (answer-completion.ts). Reads, allocates nothing.
 */
export function completesCleanly(object: unknown, fields: FieldPlan[]): boolean {
  if (!isRecord(object)) return false;
  for (let index = 0; index < fields.length; index += 1) {
    const field = fields[index];
    // A link reads its own fields (its resolver checks them); other reads happen only in a link's result.
    if (field.read === 'data' && !valueChecked(object[field.key], field.value, completesCleanly)) return false;
  }
  return true;
}

/** A value checked against its plan, its objects by `fieldsChecked`. */
function valueChecked(value: unknown, plan: ValuePlan, fieldsChecked: (object: unknown, fields: FieldPlan[]) => boolean): boolean {
  if (value == null) return !plan.nonNull;
  switch (plan.kind) {
    case 'leaf':
      return plan.unchanged(value);
    case 'list':
      if (!Array.isArray(value)) return false;
      for (let index = 0; index < value.length; index += 1) if (!valueChecked(value[index], plan.item, fieldsChecked)) return false;
      return true;
    case 'object':
      return fieldsChecked(value, plan.fields);
    case 'abstract': {
      const typename = isRecord(value) ? value.__typename : undefined;
      const fields = typeof typename === 'string' ? plan.byType.get(typename) : undefined;
      return fields !== undefined && fieldsChecked(value, fields);
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
