import type { Child } from "hono/jsx";

/** A column: its heading, as a string for figures (right-aligned), as `{text}` for text. */
export type Column = string | { text: string };

/** A captioned table in its scrolling wrapper, its header row made from the columns; `children` are its body (and foot). */
export function Table({
  caption,
  columns,
  children,
}: {
  caption: string;
  columns: readonly Column[];
  children: Child;
}) {
  return (
    <div class="table-wrap">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) =>
              typeof column === "string" ? (
                <th scope="col">{column}</th>
              ) : (
                <th scope="col" class="text">
                  {column.text}
                </th>
              ),
            )}
          </tr>
        </thead>
        {children}
      </table>
    </div>
  );
}
