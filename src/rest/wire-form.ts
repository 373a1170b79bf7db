import { z } from "zod";
import { isObject } from "../validation.js";

/**
 * How the reference's wire spells an output object where it differs from the output (src/output.ts): some
 * fields under other names, only some of them, nulls left out, values in capitals. The REST response schema and
 * every answer are derived from the output and this form, so neither restates the other.
 */
export interface WireForm {
  /** The fields the wire shows, by their output names (default: all of them). */
  only?: readonly string[];
  /** The fields the wire names otherwise, by their output names. */
  names?: Readonly<Record<string, string>>;
  /** Nullable fields are left out when null rather than sent as null. */
  nullsLeftOut?: true;
  /** Fields whose values (an enum's) the wire spells in capitals. */
  capitals?: readonly string[];
  /** The wire forms of fields holding output objects (or lists of them), by their output names. */
  fields?: Readonly<Record<string, WireForm>>;
}

/** A nullable field as one left out when null, with its description. */
export function leftOutWhenNull(field: z.ZodType) {
  if (!(field instanceof z.ZodNullable)) return field;
  const inner = field.unwrap() as z.ZodType;
  const description = field.description ?? inner.description;
  return description ? inner.optional().describe(description) : inner.optional();
}

/** An enum field (or an optional or nullable one) whose values are spelled in capitals. */
function inCapitals(field: z.ZodType): z.ZodType {
  if (field instanceof z.ZodNullable) return inCapitals(field.unwrap() as z.ZodType).nullable();
  if (field instanceof z.ZodOptional) return inCapitals(field.unwrap() as z.ZodType).optional();
  if (!(field instanceof z.ZodEnum)) throw new Error("Only an enum's values are spelled in capitals");
  const capitalized = z.enum(field.options.map((value) => String(value).toUpperCase()) as [string, ...string[]]);
  return field.description ? capitalized.describe(field.description) : capitalized;
}

/** A field holding an output object, or a list of them, under its wire form. */
function nested(field: z.ZodType, form: WireForm): z.ZodType {
  if (field instanceof z.ZodNullable) return nested(field.unwrap() as z.ZodType, form).nullable();
  if (field instanceof z.ZodOptional) return nested(field.unwrap() as z.ZodType, form).optional();
  if (field instanceof z.ZodArray) return z.array(nested(field.element as z.ZodType, form));
  if (!(field instanceof z.ZodObject)) throw new Error("A nested wire form is for a field holding an object");
  const schema = wireSchema(field, form);
  return field.description ? schema.describe(field.description) : schema;
}

/** The schema of an output object as the wire spells it. */
export function wireSchema(output: z.ZodObject, form: WireForm): z.ZodObject {
  const fields = Object.entries(output.shape as Record<string, z.ZodType>)
    .filter(([field]) => !form.only || form.only.includes(field))
    .map(([field, schema]) => {
      const inner = form.fields?.[field];
      let spelled = inner ? nested(schema, inner) : schema;
      if (form.capitals?.includes(field)) spelled = inCapitals(spelled);
      if (form.nullsLeftOut) spelled = leftOutWhenNull(spelled);
      return [form.names?.[field] ?? field, spelled];
    });
  return z.object(Object.fromEntries(fields));
}

/** An output value (an object, or a list of them) as the wire spells it. */
export function toWire(value: unknown, form: WireForm): unknown {
  if (Array.isArray(value)) return value.map((item) => toWire(item, form));
  if (!isObject(value)) return value;
  const fields = Object.entries(value)
    .filter(([field, inner]) => (!form.only || form.only.includes(field)) && !(form.nullsLeftOut && inner === null))
    .map(([field, inner]) => {
      const innerForm = form.fields?.[field];
      const spelled = innerForm ? toWire(inner, innerForm) : inner;
      const capitalized =
        form.capitals?.includes(field) && typeof spelled === "string" ? spelled.toUpperCase() : spelled;
      return [form.names?.[field] ?? field, capitalized];
    });
  return Object.fromEntries(fields);
}
