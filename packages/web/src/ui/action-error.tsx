// The refusal of an operator action, said where the action was asked, as the API words it.
export function ActionError({ error }: { error: string | undefined }) {
  if (!error) return null;
  return (
    <p class="alert error" role="alert" data-testid="action-error">
      {error}
    </p>
  );
}
