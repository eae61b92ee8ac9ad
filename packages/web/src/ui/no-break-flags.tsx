// A line that names a command: each `--flag VALUE` is kept on one line, so a narrow screen never
// breaks a flag after its dashes ("--" / "company …"). The text itself is unchanged (copy-paste
// gives the command as written).
const FLAG = /(--[a-z][a-z-]*(?: [^\s),]+)?)/g;

export function NoBreakFlags({ text }: { text: string }) {
  return (
    <>
      {text.split(FLAG).map((part, i) =>
        i % 2 === 1 ? (
          <span key={i} class="no-break">
            {part}
          </span>
        ) : (
          part
        ),
      )}
    </>
  );
}
