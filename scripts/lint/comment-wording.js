/**
 * A comment says why the code is as it is, about the code as it stands: not what came before it (the git log keeps
 * that) and not "THE x" / "the ONE x" (the structure shows a thing is the only one; a capital cannot keep it so).
 * Case-sensitive: "the one" and "issue" in ordinary prose pass.
 */
const REFUSED = [
  { pattern: /\bTHE\b/, say: '"THE": let the structure show the thing is the only one, and say why it must be' },
  { pattern: /\bthe ONE\b/, say: '"the ONE": let the structure show the thing is the only one, and say why it must be' },
  { pattern: /\bissue #?\d+/, say: 'an issue number: say why the code is so; the git log links the issue' },
  { pattern: /\bAs before\b/, say: '"As before": say why, about the code as it is' },
  { pattern: /\bbefore this change\b/, say: '"before this change": say why, about the code as it is' },
  { pattern: /\bthe old form\b/, say: '"the old form": name what the form is and why it is still read' },
];

/** @type {import('eslint').Rule.RuleModule} */
export const commentWording = {
  meta: {
    type: 'suggestion',
    docs: { description: 'Comments say why, about the code as it is: no history, no "THE" or "the ONE"' },
    schema: [],
    messages: { refused: 'Comment wording: {{say}}.' },
  },
  create(context) {
    return {
      Program() {
        for (const comment of context.sourceCode.getAllComments()) {
          const lines = comment.value.split('\n');
          lines.forEach((text, index) => {
            for (const { pattern, say } of REFUSED) {
              const match = pattern.exec(text);
              if (match === null) continue;
              const line = comment.loc.start.line + index;
              // The first line's text starts after the comment's opening (`//` or `/*`).
              const column = (index === 0 ? comment.loc.start.column + 2 : 0) + match.index;
              context.report({
                loc: { start: { line, column }, end: { line, column: column + match[0].length } },
                messageId: 'refused',
                data: { say },
              });
            }
          });
        }
      },
    };
  },
};

/** The local plugin eslint.config.js registers as `house`. */
export const housePlugin = { meta: { name: 'house' }, rules: { 'comment-wording': commentWording } };
