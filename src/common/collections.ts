/**
 * Appends a value to its key's list, making the list on first use. In place: a list copied on each append
 * (`map.set(key, [...(map.get(key) ?? []), value])`) costs the square of its length.
 */
export function appendTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
