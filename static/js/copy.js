// Copy buttons: <button data-copy="text">. Loading this module binds the page's buttons (the
// lobby's and the table page's invite links); bindCopyButtons(root) binds ones added later.

async function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  // Plain http (a friend's server on the LAN): the old way still works.
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.className = "offscreen";
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand("copy");
  area.remove();
  if (!ok) throw new Error("copy refused");
}

export function bindCopyButtons(root) {
  for (const button of root.querySelectorAll("button[data-copy]")) {
    if (button.dataset.copyBound) continue;
    button.dataset.copyBound = "1";
    const label = button.textContent;
    button.addEventListener("click", async () => {
      try {
        await copyText(button.dataset.copy);
        button.textContent = "Copied!";
      } catch {
        button.textContent = "Select and copy";
      }
      setTimeout(() => { button.textContent = label; }, 2000);
    });
  }
}

bindCopyButtons(document);
