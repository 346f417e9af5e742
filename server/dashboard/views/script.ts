/**
 * The one enhancement: copy buttons. Without JavaScript the value stays selectable in its
 * read-only field, so nothing depends on this. Its words are the page's (data attributes of
 * the body), in the page's language.
 */
export const script = `
document.querySelectorAll('[data-copy]').forEach(function (button) {
  button.hidden = false;
  var copy = document.body.getAttribute('data-copy-label');
  var copied = document.body.getAttribute('data-copied-label');
  button.addEventListener('click', function () {
    var field = document.getElementById(button.getAttribute('data-copy'));
    if (!field) return;
    var done = function () { button.textContent = copied; setTimeout(function () { button.textContent = copy; }, 2000); };
    if (navigator.clipboard) navigator.clipboard.writeText(field.value).then(done, function () { field.select(); });
    else { field.select(); document.execCommand('copy'); done(); }
  });
});
`;
