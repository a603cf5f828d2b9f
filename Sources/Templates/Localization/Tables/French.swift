extension BuiltInStrings {
    static let french: [StringKey: String] = [
        .direction: "ltr",
        .appGeneric: "l’app",
        .deepViewSubtitleAppStore: "Sur l’App Store",
        .deepViewSubtitleTestFlight: "Bêta sur TestFlight",
        .deepViewContinue: "Continuer",
        .deepViewExplain: "Continuer copie un lien que {app} vous demandera de coller après l’installation.",
        .deepViewCopiedAppStore: "Lien copié. Ouverture de l’App Store…",
        .deepViewCopiedTestFlight: "Lien copié. Ouverture de TestFlight…",
        .inAppTitle: "Vous êtes dans le navigateur de l’app {browser}",
        .inAppTitleGeneric: "Vous êtes dans le navigateur d’une app",
        .inAppExplain: "Les apps peuvent ne pas s’ouvrir depuis ce navigateur.",
        .inAppSafari: "Ouvrir dans Safari",
        .inAppStepsMenu:
            "Pour ouvrir cette page dans Safari, touchez ⋯ en haut de l’écran, puis choisissez de l’ouvrir dans votre navigateur.",
        .inAppStepsGeneric:
            "Pour ouvrir cette page dans Safari, ouvrez le menu de l’app, puis choisissez de l’ouvrir dans votre navigateur.",
        .inAppOpenApp: "Ouvrir dans {app}",
        .previewOpen: "Ouvrir le lien",
        .handoffTitle: "Continuez dans l’app",
        .handoffIntro: "Vous avez ouvert un lien destiné à {app}. Trois étapes pour y arriver\u{00A0}:",
        .handoffStepInstall: "Installez {app}.",
        .handoffStepOpen: "Ouvrez-la.",
        .handoffStepPaste: "Touchez Coller quand elle vous le demande\u{00A0}: elle vous mènera là où pointe le lien.",
        .handoffButtonAppStore: "Ouvrir l’App Store",
        .handoffButtonTestFlight: "Ouvrir TestFlight",
        .notFoundTitle: "Lien introuvable",
        .notFoundBody:
            "Ce lien n’existe pas. Vérifiez qu’il est bien saisi, ou demandez-en un nouveau à la personne qui l’a envoyé.",
        .disabledTitle: "Ce lien n’est plus actif",
        .disabledBody:
            "Son propriétaire l’a désactivé. Si vous en avez encore besoin, demandez-en un nouveau à son expéditeur.",
        .expiredTitle: "Ce lien a expiré",
        .expiredBody:
            "Il ne devait fonctionner que jusqu’à une date désormais passée. Si vous en avez encore besoin, demandez-en un nouveau à son expéditeur.",
        .errorTitle: "Un problème est survenu",
        .errorBody: "Impossible d’ouvrir ce lien pour le moment. Réessayez dans un instant.",
        .rootTitle: "Ici vivent des liens courts",
        .rootBody:
            "Cette adresse héberge des liens courts qui ouvrent des apps et des sites web. Ouvrez le lien complet reçu.",
    ]
}
