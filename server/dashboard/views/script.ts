/**
 * Two enhancements: copy buttons, and the refund button that says the amount as it is typed.
 * Without JavaScript the value stays selectable in its read-only field, and the refund button
 * says the whole amount that remains, so nothing depends on this. Its words are the page's
 * (data attributes), in the page's language.
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
document.querySelectorAll('[data-refund-label]').forEach(function (button) {
  var field = button.form && button.form.elements.namedItem('amount');
  if (!field) return;
  var format = new Intl.NumberFormat(button.getAttribute('data-locale'), { style: 'currency', currency: button.getAttribute('data-currency') });
  var digits = format.resolvedOptions().maximumFractionDigits;
  field.addEventListener('input', function () {
    if (!/^[1-9][0-9]{0,15}$/.test(field.value)) return;
    button.textContent = button.getAttribute('data-refund-label').replace('{amount}', format.format(Number(field.value) / Math.pow(10, digits)));
  });
});
`;
