/**
 * The one enhancement: copy buttons. Without JavaScript the value stays selectable in its
 * read-only field, so nothing depends on this.
 */
export const script = `
document.querySelectorAll('[data-copy]').forEach(function (button) {
  button.hidden = false;
  button.addEventListener('click', function () {
    var field = document.getElementById(button.getAttribute('data-copy'));
    if (!field) return;
    var done = function () { button.textContent = 'Copied'; setTimeout(function () { button.textContent = 'Copy'; }, 2000); };
    if (navigator.clipboard) navigator.clipboard.writeText(field.value).then(done, function () { field.select(); });
    else { field.select(); document.execCommand('copy'); done(); }
  });
});
`;
