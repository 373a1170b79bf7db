/** Values by text, at most `max` of them (the oldest goes first): prepared statements, INSERT texts. */
export function boundedMemo<T>(max: number): (key: string, build: () => T) => T {
  const entries = new Map<string, T>();
  return (key, build) => {
    let entry = entries.get(key);
    if (entry === undefined) {
      if (entries.size >= max) entries.delete(entries.keys().next().value!);
      entry = build();
      entries.set(key, entry);
    }
    return entry;
  };
}
