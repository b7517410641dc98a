// The lobby's small behaviours: copy buttons for invite links, and the create form showing
// only the options of the chosen ruleset (the server ignores the others anyway).
import "./copy.js"; // binds the invite links' copy buttons

function showRulesetOptions(form) {
  const select = form.querySelector("select[name=ruleset]");
  if (!select) return;
  const update = () => {
    const chosen = select.value;
    for (const el of form.querySelectorAll("[data-rulesets]")) {
      el.hidden = !el.dataset.rulesets.split(" ").includes(chosen);
    }
    for (const el of form.querySelectorAll(".ruleset-desc[data-ruleset]")) {
      el.hidden = el.dataset.ruleset !== chosen;
    }
  };
  select.addEventListener("change", update);
  update();
}

const form = document.getElementById("new-table");
if (form) showRulesetOptions(form);
