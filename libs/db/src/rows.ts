/** The single row of an `insert ... returning` or a primary-key lookup that must exist. */
export function one<T>(rows: readonly T[]): T {
  const [row] = rows;
  if (row === undefined) throw new Error('expected one row, got none');
  return row;
}
