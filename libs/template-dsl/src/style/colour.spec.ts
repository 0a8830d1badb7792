import { parseColour } from './colour';

describe('parseColour (spec 1.1 styles: CSS names, hex, rgb/rgba, hsl)', () => {
  it.each([
    ['red', '#ff0000'],
    ['RebeccaPurple', '#663399'],
    ['transparent', 'rgba(0,0,0,0)'],
    ['#abc', '#aabbcc'],
    ['#abcd', 'rgba(170,187,204,0.867)'],
    ['#1F4E79', '#1f4e79'],
    ['#1f4e7980', 'rgba(31,78,121,0.502)'],
    ['rgb(255, 0, 0)', '#ff0000'],
    ['rgb(100%, 50%, 0%)', '#ff8000'],
    ['rgba(0, 0, 255, 0.5)', 'rgba(0,0,255,0.5)'],
    ['rgb(0 128 0 / 25%)', 'rgba(0,128,0,0.25)'],
    ['hsl(120, 100%, 25%)', '#008000'],
    ['hsla(240, 100%, 50%, .5)', 'rgba(0,0,255,0.5)'],
    ['hsl(0.5turn 100% 50%)', '#00ffff'],
    ['  Navy  ', '#000080'],
  ])('%j is %j', (input, expected) => {
    expect(parseColour(input)).toBe(expected);
  });

  it.each([
    ['reddish'],
    ['#12'],
    ['#ggg'],
    ['rgb(1,2)'],
    ['hsl(120, 100, 50)'],
    ['red;background:url(https://evil.example/x)'],
    ['url(javascript:alert(1))'],
    ['expression(alert(1))'],
    ['</style><script>'],
    [''],
  ])('%j is not a colour', (input) => {
    expect(parseColour(input)).toBeNull();
  });
});
