/// `console.css`: the console's only stylesheet (no inline styles: the policy allows
/// none). Colours keep 4.5:1 against their background for text and 3:1 for chart
/// marks and focus rings; every focusable element shows a visible ring.
enum ConsoleStylesheet {
    static let text = #"""
        :root {
          --ink: #1f2328; --muted: #57606a; --line: #d0d7de; --paper: #ffffff; --wash: #f6f8fa;
          --accent: #0b57d0; --accent-ink: #ffffff; --danger: #b42318; --ok: #1a7f37; --warn: #9a6700;
          --top: #0f172a; --focus: #1d4ed8;
          --s0: #1d4ed8; --s1: #15803d; --s2: #7e22ce; --s3: #b45309; --s4: #4b5563; --s5: #0e7490;
        }
        * { box-sizing: border-box; }
        html { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink);
          background: var(--paper); line-height: 1.5; }
        body { margin: 0; }
        a { color: var(--accent); }
        a:hover { text-decoration-thickness: 2px; }
        :focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
        .skip { position: absolute; left: -999px; top: 0; background: var(--paper); padding: .5rem 1rem; }
        .skip:focus { left: 1rem; }
        header.top { display: flex; flex-wrap: wrap; align-items: center; gap: 1rem 2rem; padding: .75rem 1.5rem;
          background: var(--top); color: #ffffff; }
        header.top a, header.top button { color: #ffffff; }
        header.top :focus-visible { outline-color: #fbbf24; }
        .brand { font-weight: 700; text-decoration: none; }
        nav.main ul { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; list-style: none; margin: 0; padding: 0; }
        nav.main a { text-decoration: none; padding: .25rem 0; }
        nav.main a[aria-current="page"] { border-bottom: 3px solid #fbbf24; }
        form.sign-out { margin-left: auto; }
        form.sign-out button { background: transparent; border: 1px solid #94a3b8; border-radius: 4px;
          padding: .25rem .75rem; font: inherit; cursor: pointer; }
        main { max-width: 72rem; margin: 0 auto; padding: 1.5rem; }
        footer { max-width: 72rem; margin: 0 auto; padding: 1rem 1.5rem 2rem; color: var(--muted); font-size: .875rem; }
        h1 { font-size: 1.6rem; margin: 0 0 1rem; overflow-wrap: anywhere; }
        h2 { font-size: 1.2rem; margin: 2rem 0 .75rem; }
        .note, .freshness { color: var(--muted); }
        .actions { display: flex; flex-wrap: wrap; gap: .75rem; align-items: center; margin: 1rem 0; }
        .actions form { margin: 0; }
        .button, button.primary, button.danger, button.secondary { display: inline-block; font: inherit;
          border-radius: 4px; padding: .45rem 1rem; cursor: pointer; text-decoration: none; border: 1px solid transparent; }
        .button, button.primary { background: var(--accent); color: var(--accent-ink); }
        button.danger { background: var(--danger); color: #ffffff; }
        button.secondary, a.secondary { background: var(--paper); color: var(--ink); border-color: var(--muted); }
        table { border-collapse: collapse; width: 100%; margin: .5rem 0 1.5rem; font-variant-numeric: tabular-nums; }
        caption { text-align: left; font-weight: 600; padding: .25rem 0; }
        th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
        thead th { border-bottom: 2px solid var(--ink); }
        td.number, th.number { text-align: right; }
        tbody tr:nth-child(even) { background: var(--wash); }
        td.url { overflow-wrap: anywhere; max-width: 28rem; }
        .status-enabled { color: var(--ok); font-weight: 600; }
        .status-disabled { color: var(--danger); font-weight: 600; }
        .severity-ok { color: var(--ok); } .severity-warning { color: var(--warn); } .severity-error { color: var(--danger); }
        form.search { display: flex; flex-wrap: wrap; gap: .75rem; align-items: end; margin: 1rem 0; }
        form.search div { display: flex; flex-direction: column; }
        .field { margin: 0 0 1.1rem; display: flex; flex-direction: column; max-width: 36rem; }
        label { font-weight: 600; }
        .hint { color: var(--muted); font-size: .875rem; margin: .15rem 0 0; }
        input[type="text"], input[type="url"], input[type="search"], input[type="password"], select {
          font: inherit; padding: .4rem .5rem; border: 1px solid var(--muted); border-radius: 4px; background: var(--paper);
          color: var(--ink); }
        input[aria-invalid="true"], select[aria-invalid="true"] { border: 2px solid var(--danger); }
        .field-error, .form-error { color: var(--danger); font-weight: 600; margin: .25rem 0 0; }
        .notice { border: 2px solid var(--ok); border-radius: 4px; padding: .75rem 1rem; margin: 1rem 0; }
        .alert { border: 2px solid var(--danger); border-radius: 4px; padding: .75rem 1rem; margin: 1rem 0; }
        code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; overflow-wrap: anywhere; }
        .short-url { font-size: 1.15rem; }
        dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .35rem 1.25rem; margin: 1rem 0; }
        dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; overflow-wrap: anywhere; }
        .link-head { display: flex; flex-wrap: wrap; gap: 1.5rem; align-items: flex-start; }
        .link-head img { border: 1px solid var(--line); }
        nav.period ul { display: flex; gap: 1rem; list-style: none; padding: 0; margin: .5rem 0 1rem; }
        nav.period a[aria-current="page"] { font-weight: 700; text-decoration: none; border-bottom: 3px solid var(--accent); }
        figure { margin: 1rem 0 .5rem; }
        figure svg { width: 100%; height: auto; max-width: 60rem; display: block; }
        figcaption { color: var(--muted); font-size: .875rem; }
        .legend { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; padding: 0; margin: .25rem 0; }
        .swatch { display: inline-block; width: .8rem; height: .8rem; margin-right: .35rem; vertical-align: -0.05rem;
          border-radius: 2px; }
        .chart-axis { stroke: #57606a; stroke-width: 1; }
        .chart-grid { stroke: #d0d7de; stroke-width: 1; }
        .chart-label { fill: #57606a; font-size: 11px; font-family: system-ui, sans-serif; }
        .s0 { fill: var(--s0); background: var(--s0); } .s1 { fill: var(--s1); background: var(--s1); }
        .s2 { fill: var(--s2); background: var(--s2); } .s3 { fill: var(--s3); background: var(--s3); }
        .s4 { fill: var(--s4); background: var(--s4); } .s5 { fill: var(--s5); background: var(--s5); }
        .columns { display: grid; grid-template-columns: repeat(auto-fit, minmax(18rem, 1fr)); gap: 0 2rem; }
        .totals { display: grid; grid-template-columns: repeat(auto-fill, minmax(10.5rem, 1fr)); gap: .75rem;
          margin: .5rem 0 1rem; padding: 0; }
        .totals > div { border: 1px solid var(--line); border-radius: 6px; padding: .6rem .8rem; background: var(--wash); }
        .totals dl { margin: 0; }
        .totals dt { color: var(--muted); font-size: .875rem; font-weight: 600; }
        .totals dd { margin: 0; }
        .totals .value { font-size: 1.6rem; font-weight: 700; line-height: 1.2; font-variant-numeric: tabular-nums; }
        .totals .change { font-size: .8125rem; color: var(--muted); }
        .totals .change.up { color: var(--ok); } .totals .change.down { color: var(--danger); }
        .breakdowns { display: grid; grid-template-columns: repeat(auto-fit, minmax(15rem, 1fr)); gap: 0 1.5rem;
            align-items: start; }
        .breakdowns table { width: 100%; } .breakdowns tbody th { overflow-wrap: anywhere; }
        details.days { margin: 1rem 0; } details.days summary { cursor: pointer; font-weight: 600; }
        input[type="number"], input[type="datetime-local"] { font: inherit; padding: .4rem .5rem;
          border: 1px solid var(--muted); border-radius: 4px; background: var(--paper); color: var(--ink); }
        input[type="number"] { max-width: 8rem; }
        fieldset.options { border: 1px solid var(--line); border-radius: 6px; margin: 1.5rem 0; padding: .75rem 1rem; }
        fieldset.options > legend { font-weight: 700; padding: 0 .35rem; }
        fieldset.row { border: 0; border-top: 1px solid var(--line); margin: .75rem 0 0; padding: .5rem 0 0; }
        fieldset.row > legend { font-weight: 600; padding: 0 .35rem 0 0; }
        .row-fields { display: flex; flex-wrap: wrap; gap: 0 1.25rem; align-items: flex-start; }
        .row-fields .field { min-width: 12rem; }
        fieldset.variant .row-fields .field:first-child { flex: 1 1 24rem; }
        fieldset.choices { border: 0; margin: 0 0 1.1rem; padding: 0; }
        fieldset.choices > legend { font-weight: 600; padding: 0; }
        .check { display: inline-flex; align-items: center; gap: .3rem; margin: .2rem 1rem .2rem 0; }
        .check label { font-weight: 400; }
        div.check { margin-bottom: .75rem; }
        .default-action { position: absolute; left: -10000px; width: 1px; height: 1px; overflow: hidden; }
        .tag { display: inline-block; padding: 0 .5rem; border: 1px solid; border-radius: 999px; font-size: .8125rem;
          color: var(--ink); margin: 0 .25rem .15rem 0; }
        .swatch { display: inline-block; width: .9rem; height: .9rem; border-radius: 3px; margin-right: .35rem;
          vertical-align: -.1rem; }
        .tag-gray { background: #eaeef2; border-color: #6e7781; } .swatch.tag-gray { background: #6e7781; }
        .tag-red { background: #ffebe9; border-color: #cf222e; } .swatch.tag-red { background: #cf222e; }
        .tag-orange { background: #fff1e5; border-color: #bc4c00; } .swatch.tag-orange { background: #bc4c00; }
        .tag-yellow { background: #fff8c5; border-color: #9a6700; } .swatch.tag-yellow { background: #9a6700; }
        .tag-green { background: #dafbe1; border-color: #1a7f37; } .swatch.tag-green { background: #1a7f37; }
        .tag-teal { background: #d7f5f0; border-color: #0e7490; } .swatch.tag-teal { background: #0e7490; }
        .tag-blue { background: #ddf4ff; border-color: #0969da; } .swatch.tag-blue { background: #0969da; }
        .tag-purple { background: #fbefff; border-color: #8250df; } .swatch.tag-purple { background: #8250df; }
        .tag-pink { background: #ffeff7; border-color: #bf3989; } .swatch.tag-pink { background: #bf3989; }
        table.ab td.verdict { font-weight: 600; }
        .ab-assumptions { color: var(--muted); font-size: .875rem; max-width: 48rem; }
        .sign-in { max-width: 28rem; }
        @media (max-width: 40rem) { main { padding: 1rem; } th, td { padding: .35rem .4rem; } }
        """#
}
