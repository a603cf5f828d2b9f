extension BuiltInStrings {
    static let german: [StringKey: String] = [
        .direction: "ltr",
        .appGeneric: "die App",
        .deepViewSubtitleAppStore: "Im App Store",
        .deepViewSubtitleTestFlight: "Beta auf TestFlight",
        .deepViewContinue: "Weiter",
        .deepViewExplain: "„Weiter“ kopiert einen Link – nach der Installation bittet dich {app}, ihn einzufügen.",
        .deepViewCopiedAppStore: "Link kopiert. App Store wird geöffnet …",
        .deepViewCopiedTestFlight: "Link kopiert. TestFlight wird geöffnet …",
        .inAppTitle: "Du bist im Browser von {browser}",
        .inAppTitleGeneric: "Du bist im Browser einer App",
        .inAppExplain: "Apps öffnen sich in diesem Browser möglicherweise nicht.",
        .inAppSafari: "In Safari öffnen",
        .inAppStepsMenu:
            "Um diese Seite in Safari zu öffnen, tippe oben auf ⋯ und wähle dann, sie in deinem Browser zu öffnen.",
        .inAppStepsGeneric:
            "Um diese Seite in Safari zu öffnen, öffne das Menü der App und wähle dann, sie in deinem Browser zu öffnen.",
        .inAppOpenApp: "In {app} öffnen",
        .previewOpen: "Link öffnen",
        .handoffTitle: "Weiter in der App",
        .handoffIntro: "Du hast einen Link für {app} geöffnet. In drei Schritten kommst du ans Ziel:",
        .handoffStepInstall: "Installiere {app}.",
        .handoffStepOpen: "Öffne sie.",
        .handoffStepPaste: "Tippe auf „Einfügen“, wenn sie danach fragt – dann geht es direkt zum Ziel des Links.",
        .handoffButtonAppStore: "App Store öffnen",
        .handoffButtonTestFlight: "TestFlight öffnen",
        .notFoundTitle: "Link nicht gefunden",
        .notFoundBody: "Diesen Link gibt es nicht. Prüfe die Schreibweise oder bitte den Absender um einen neuen.",
        .disabledTitle: "Dieser Link ist nicht mehr aktiv",
        .disabledBody:
            "Sein Inhaber hat ihn abgeschaltet. Wenn du ihn noch brauchst, bitte den Absender um einen neuen.",
        .expiredTitle: "Dieser Link ist abgelaufen",
        .expiredBody:
            "Er galt nur bis zu einem Datum, das inzwischen vorbei ist. Wenn Sie ihn noch brauchen, bitten Sie den Absender um einen neuen.",
        .errorTitle: "Etwas ist schiefgelaufen",
        .errorBody: "Dieser Link konnte gerade nicht geöffnet werden. Bitte versuche es gleich noch einmal.",
        .rootTitle: "Hier wohnen Kurzlinks",
        .rootBody: "Unter dieser Adresse liegen Kurzlinks, die Apps und Websites öffnen. Öffne den vollständigen Link.",
    ]
}
